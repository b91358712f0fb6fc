"""Training and export of the reader's models (needs the training extra: torch, ultralytics)."""
