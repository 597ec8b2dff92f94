"""What the library holds and how it is kept: feeds and subscribing, tags and smart lists, notes, the topic graph,
backups and sync."""
