"""Rebuilding the layout from one photo's tiles: which tiles touch (`contacts`), then the line,
the spinner, its arms and the open ends, checked by the rules (`reconstruct`)."""
