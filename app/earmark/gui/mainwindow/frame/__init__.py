"""The window's frame: actions and their keys, help, panes and docks and their layout, what the window tells the
person, its life on the desktop and its closing."""
