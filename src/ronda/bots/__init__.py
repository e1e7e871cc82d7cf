"""Computer opponents. A bot is given a seat's view and the legal actions, never the game."""
