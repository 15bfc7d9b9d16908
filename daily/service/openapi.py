def openapi_document(url: str) -> dict:
    return {"openapi": "3.1.0"}
