"""Burano (EmperorS4, 2015; 2-4 players): rules data, both rules implementations, notation, views."""
