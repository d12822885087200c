"""REST API v1 of the tournaments app: thin DRF views over services and selectors."""
