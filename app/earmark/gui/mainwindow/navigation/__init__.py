"""Finding the room: the navigator, the sidebar, the item list with its search, order and
selection, the panes that follow the selected item, and the views it shows."""
