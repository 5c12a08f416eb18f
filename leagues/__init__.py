"""Leagues of bots and duplicate tournaments for humans."""
