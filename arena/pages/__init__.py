"""The arena's web pages: a second client of the same services and selectors as the API.

One module per page family (leaderboards, bots, matches, the replay viewer, the SPRT of two
versions, the protocol); ``urls`` routes them. Every view reads through one selector call
and writes through the services.
"""
