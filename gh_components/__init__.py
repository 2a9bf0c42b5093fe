"""Grasshopper components of Extrados and the stdlib-only client they share."""
