"""The Textual application: play President, AI debug screen, personality editor."""
