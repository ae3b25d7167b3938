"""What the bot tests alone share: clicks that arrive at once, inputs no client sends, an engine
held still, canned Discord HTTP answers."""
