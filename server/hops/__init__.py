"""Rhino's Hops component as a client of the service: its protocol (`protocol`) and our functions (`functions`)."""
