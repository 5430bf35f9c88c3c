"""The canvas: a scene projecting the document into graphics items, and the view users edit in."""
