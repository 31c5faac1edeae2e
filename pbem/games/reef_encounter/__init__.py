"""Reef Encounter (Richard Breese): order language, rendering, components, state, setup, views.

No GAME yet: the host discovers games by GAME, so it appears only once the whole Game
protocol (pbem/engine/contract.py) is implemented.
"""
