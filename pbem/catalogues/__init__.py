"""Translation catalogue tooling: which sources feed which catalogue (the host's and one per
game), and extracting, updating and checking the .po files.
"""
