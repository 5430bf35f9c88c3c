"""The run side of the studio: the runner (engine off the GUI thread), its panels and controller."""
