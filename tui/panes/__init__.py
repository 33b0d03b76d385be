"""One pane per tab; each a form on the left and the tool's result on the right."""
