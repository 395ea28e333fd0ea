"""The libFuzzer dictionary of `utf8cert fuzz`, shipped as package data."""
