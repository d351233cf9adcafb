"""The installed distribution exposes one namespace, bianpai.*; no bare engines/templates."""

import subprocess
import sys


def test_only_the_bianpai_namespace_is_importable(tmp_path):
    code = ("import importlib.util as u, bianpai.engines, bianpai.templates, bianpai.workbooks, "
            "bianpai.addin; print([u.find_spec(n) is None for n in "
            "('engines', 'templates', 'workbooks', 'addin')])")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == "[True, True, True, True]"


def test_presets_ship_as_package_data(tmp_path):
    code = ("from bianpai.templates.presets_io import preset_names, load_preset; "
            "names = preset_names(); [load_preset(n) for n in names]; print(len(names))")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                         text=True, check=True).stdout
    assert int(out) >= 5
