"""Ways to use the engine: the command line, narration, and (as extras) terminal, web and research adapters."""
