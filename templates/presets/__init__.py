"""Regulation presets (YAML), one file per seed event."""
