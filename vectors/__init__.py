"""The YAML test vectors, shipped as package data."""
