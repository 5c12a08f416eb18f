"""Duplicate tournaments for humans: events, movements, boards, score entry, standings."""
