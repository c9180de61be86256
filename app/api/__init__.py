"""REST routers."""
