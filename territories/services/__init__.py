"""Services of the meta-map: maps, territorial grids, exploration, movement, passage."""
