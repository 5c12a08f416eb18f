"""HTTP plumbing shared by every app's API and pages: middleware, request parsers, response
renderers, the request quotas (``quotas``: throttles, their rates and slots) and the client
address they count, idempotent POSTs, the response cache, pagination and the strict input
fields of serializers.

Nothing here knows a game, a bot or a league: views import it, it imports no view.
"""
