"""The topic graph view: scene items, the zoomable view, its panel of filters and modes, and exports."""
