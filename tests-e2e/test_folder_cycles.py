"""The folder-circle check (scripts/check-folder-cycles.py, run by `make lint`) finds a circle
between two folders of a module, names one use per edge, and accepts one-way use."""
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("folder_cycles", ROOT / "scripts" / "check-folder-cycles.py")
cycles = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cycles)


def module(tmp_path, files):
    base = tmp_path / "Sources" / "Demo"
    for name, text in files.items():
        (base / name).parent.mkdir(parents=True, exist_ok=True)
        (base / name).write_text(text)
    return base


def circles(base):
    uses = cycles.graph(base)
    nodes = set(uses) | {o for targets in uses.values() for o in targets}
    return cycles.strongly_connected(nodes, uses), uses


def test_a_circle_between_two_folders_is_found_with_its_uses(tmp_path):
    base = module(tmp_path, {
        "HTTP/Error.swift": "public struct APIError: Error {}\nfunc f() { _ = UploadHeader.offset }\n",
        "API/Upload.swift": "enum UploadHeader { static let offset = 1 }\nfunc g() throws { throw APIError() }\n",
    })
    found, uses = circles(base)
    assert found == [["API", "HTTP"]]
    assert uses["HTTP"]["API"][1] == "UploadHeader" and uses["API"]["HTTP"][1] == "APIError"


def test_one_way_use_names_in_comments_and_strings_and_members_are_not_circles(tmp_path):
    base = module(tmp_path, {
        "HTTP/Error.swift": "/// Unlike `UploadHeader`...\npublic struct APIError: Error {\n    func offset() {}\n}\nlet s = \"UploadHeader\"\n",
        "API/Upload.swift": "enum UploadHeader {\n    func offset() {}\n}\nfunc g() throws { throw APIError() }\n",
    })
    found, _ = circles(base)
    assert found == []
