"""Data files for Reef Encounter (a package so that setuptools ships its *.toml)."""
