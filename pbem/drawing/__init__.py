"""Drawing helpers the games and the mail share: SVG bands and grids, PNG pictures.
"""
