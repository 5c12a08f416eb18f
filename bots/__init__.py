"""What runs inside the sandbox: the protocol codec, the bot SDK and the reference bots."""
