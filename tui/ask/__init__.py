"""Ask: plain-words sizing questions answered from the same tools, offline by a parser or by a configured LLM."""
