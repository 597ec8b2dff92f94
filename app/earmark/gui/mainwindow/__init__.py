"""The main window: layout, actions and the player bar."""
