"""Record and replay in the studio: the run diff, saved tests and the panels that show them."""
