"""gpusizer.tui"""
