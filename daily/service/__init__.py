"""The daily service: Flask API, Redis state and the glue to the RQ workers."""
