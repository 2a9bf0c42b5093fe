"""``GET /``: the browser viewer (server/static, three.js vendored there)."""
from flask import Blueprint, current_app

blueprint = Blueprint("viewer", __name__)


@blueprint.get("/")
def index():
    response = current_app.send_static_file("index.html")
    response.headers["Cache-Control"] = "no-cache"
    return response
