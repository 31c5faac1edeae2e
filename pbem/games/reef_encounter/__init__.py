"""Reef Encounter (Richard Breese): order language and rendering; rules engine to come."""
