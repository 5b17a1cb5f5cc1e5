"""browser_check.py: loads an nc report in headless chromium, as a person would open it.

Why a copy of the page: chromium's --dump-dom gives the DOM after the scripts ran but not the
console, so the copy starts with a script that records every error (window.onerror, console.error)
on <html data-js-errors>; the dumped DOM then says whether any script failed. The heatmap's cells
are painted by the page's own script, so painted cells also show the script ran.

  browser_check.py REPORT.html [--screenshot OUT.png] [--views DIR [--prefix NAME] [--only V,...]] [--chromium PATH]

--views writes one PNG per view of the page (DIR/NAME-<view>.png, cropped to what the view draws):
the screenshots of docs/reports.md.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

RECORDER = """<script>(function(){var e=[];function note(m){e.push(String(m));
document.documentElement.setAttribute('data-js-errors',e.join(' | '));}
document.documentElement.setAttribute('data-js-errors','');
window.addEventListener('error',function(ev){note(ev.message);});
var ce=console.error;console.error=function(){note(Array.prototype.join.call(arguments,' '));ce.apply(console,arguments);};
})();</script>"""


def chromium_path(given):
    for c in ([given] if given else []) + ["chromium", "chromium-browser", "google-chrome"]:
        p = shutil.which(c) if c else None
        if p:
            return p
    return None


def run(browser, url, extra, timeout=60):
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
           "--window-size=1200,2200", "--virtual-time-budget=2000"] + extra + [url]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def view_pages(page):
    """(slug, page) for each view: the page's head and script around one <h2> section."""
    head, body = page.split("<body>", 1)
    body, tail = body.rsplit("<script>", 1)
    parts = re.split(r"(?=<h2[ >])", body)[1:]
    out = []
    for part in parts:
        title = re.sub(r"<[^>]*>", "", re.match(r"<h2[^>]*>(.*?)</h2>", part).group(1))
        slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
        out.append((slug, head + "<body>" + part + "<script>" + tail))
    return out


def crop(path):
    """Crops a screenshot to its non-white content plus a margin (when PIL is there)."""
    try:
        from PIL import Image, ImageChops
    except ImportError:
        return
    im = Image.open(path).convert("RGB")
    box = ImageChops.difference(im, Image.new("RGB", im.size, (255, 255, 255))).getbbox()
    if box:
        m = 12
        im.crop((max(box[0] - m, 0), max(box[1] - m, 0), min(box[2] + m, im.width), min(box[3] + m, im.height))).save(path, optimize=True)


def shoot_views(browser, page, outdir, prefix, tmp, only=None):
    os.makedirs(outdir, exist_ok=True)
    views = [(s, t) for s, t in view_pages(page) if not only or s in only.split(",")]
    if only and len(views) != len(only.split(",")):
        print(f"browser_check.py: error: --only {only}: the page's views are "
              + ",".join(s for s, _ in view_pages(page)), file=sys.stderr)
        return False
    for i, (slug, text) in enumerate(views):
        src = os.path.join(tmp, f"view{i}.html")
        with open(src, "w") as f:
            f.write(text)
        png = os.path.abspath(os.path.join(outdir, f"{prefix}-{slug}.png"))
        run(browser, "file://" + src, [f"--screenshot={png}", f"--user-data-dir={tmp}/profile-v{i}"])
        if not os.path.exists(png):
            print(f"browser_check.py: error: no screenshot of view {slug}", file=sys.stderr)
            return False
        crop(png)
        print(f"view: {slug}")
    return True


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("report")
    ap.add_argument("--screenshot")
    ap.add_argument("--chromium")
    ap.add_argument("--views", help="a directory for one PNG per view")
    ap.add_argument("--prefix", default="report", help="the views' file names start with this")
    ap.add_argument("--only", help="comma-separated views to shoot (their file-name slugs), default all")
    a = ap.parse_args(argv)
    browser = chromium_path(a.chromium)
    if not browser:
        print("browser_check.py: error: no chromium (scripts/setup.sh installs Debian's)", file=sys.stderr)
        return 2
    page = open(a.report).read()
    with tempfile.TemporaryDirectory() as tmp:
        probe = os.path.join(tmp, "index.html")
        with open(probe, "w") as f:
            f.write(page.replace("<head>", "<head>" + RECORDER, 1))
        env_home = {"HOME": tmp}
        os.environ.update(env_home)
        dom = run(browser, "file://" + probe, ["--dump-dom", f"--user-data-dir={tmp}/profile"]).stdout
        if a.screenshot:
            shot = run(browser, "file://" + os.path.abspath(a.report),
                       [f"--screenshot={os.path.abspath(a.screenshot)}", f"--user-data-dir={tmp}/profile2"])
            if not os.path.exists(a.screenshot):
                print(f"browser_check.py: error: no screenshot written:\n{shot.stderr}", file=sys.stderr)
                return 1
        if a.views and not shoot_views(browser, page, a.views, a.prefix, tmp, a.only):
            return 1
    m = re.search(r'<html[^>]*data-js-errors="([^"]*)"', dom)
    if not m:
        print("browser_check.py: error: the page's scripts did not run (no data-js-errors in the DOM)", file=sys.stderr)
        return 1
    print(f"js errors: {m.group(1) or 'none'}")
    cells = re.findall(r'<rect class="core( used)?"[^>]*fill="([^"]*)"', dom)
    painted = sum(1 for used, fill in cells if used and fill.startswith("rgb("))
    print(f"heatmap: {len(cells)} cells, {sum(1 for u, _ in cells if u)} used, {painted} painted by the script")
    print("tables: " + " ".join(re.findall(r'<table id="([^"]*)"', dom)))
    return 1 if m.group(1) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
