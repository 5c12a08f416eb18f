"""Pages that gather leagues and the arena: the home page, players' pages and the leagues.

They live here, above the arena, because leagues build on the arena and never the other
way round (ARCHITECTURE.md).
"""
