"""Running Boardroom as a service: the graceful stop (stop.py), the health and metrics endpoint
(endpoint.py) and the metrics themselves (metrics.py). Nothing here knows the games."""
