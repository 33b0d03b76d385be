"""gpusizer.server"""
