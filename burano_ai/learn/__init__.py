"""Learning an evaluation: self-play data, encoders, training, net files (docs/learning.md)."""
