"""Test drivers shared by the bot tests and the load benchmark."""
