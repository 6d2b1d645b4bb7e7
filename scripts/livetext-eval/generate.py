"""Generates Live Text's evaluation set: frames nobody picked by hand.

Every frame is drawn from a fixed seed (kind, index) with fonts from Debian's packages (Noto
CJK sans and serif, IPA, Takao, DejaVu, Liberation) over procedural photo-like or video-like
backgrounds, then encoded through real H.264 (libx264, CRF 23 for even indices, CRF 32 for
odd ones) and decoded back. The ground truth is the text drawn, line by line, with each
line's box in the frame and its language.

Split rule (fixed, never tuned): within each kind, frames whose index % 4 is 0 or 1 form the
tuning half, 2 or 3 the held-out half — so each half has both encodes of every kind.

Usage: python3 scripts/livetext-eval/generate.py OUT_DIR [--per-kind N]
Writes OUT_DIR/truth.json, OUT_DIR/crf23.mp4, OUT_DIR/crf32.mp4 and OUT_DIR/decoded/<id>.png.
Each picture is held for one second in its video; frame `id` is shown at `time` seconds.
"""
import argparse
import json
import math
import random
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

WIDTH, HEIGHT = 1280, 720
VERSION = 1  # bump when the drawing changes, so cached sets are remade

FONTS = {
    "sans_cjk": ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 0),
    "sans_cjk_bold": ("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", 0),
    "serif_cjk": ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc", 0),
    "serif_cjk_bold": ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc", 0),
    "ipa_gothic": ("/usr/share/fonts/opentype/ipafont-gothic/ipagp.ttf", 0),
    "ipa_mincho": ("/usr/share/fonts/opentype/ipafont-mincho/ipamp.ttf", 0),
    "takao_gothic": ("/usr/share/fonts/truetype/takao-gothic/TakaoPGothic.ttf", 0),
    "dejavu": ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 0),
    "dejavu_bold": ("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", 0),
    "dejavu_serif": ("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf", 0),
    "dejavu_mono": ("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", 0),
    "liberation": ("/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf", 0),
    "liberation_bold": ("/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf", 0),
    "liberation_serif": ("/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf", 0),
    "liberation_mono": ("/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf", 0),
}
LATIN_FONTS = ["dejavu", "dejavu_bold", "dejavu_serif", "liberation", "liberation_bold", "liberation_serif", "sans_cjk"]
JAPANESE_FONTS = ["sans_cjk", "sans_cjk_bold", "serif_cjk", "serif_cjk_bold", "ipa_gothic", "ipa_mincho", "takao_gothic"]
MONO_FONTS = ["dejavu_mono", "liberation_mono"]

KINDS = [
    "slide", "code", "station_sign", "caption", "lower_third_en", "lower_third_ja",
    "small_text", "large_text", "noisy", "rotated", "mixed", "prices_times", "light_on_colour",
]

# --- vocabulary -------------------------------------------------------------------------

WORDS = (
    "market energy design network planning review budget quarterly results customer journey "
    "strategy growth launch release schedule meeting agenda summary overview research method "
    "analysis weather forecast traffic update station platform departure arrival museum garden "
    "kitchen recipe minutes flour butter sugar project timeline milestone feedback question "
    "answer library search index frame video player caption subtitle morning evening weekend "
    "holiday concert ticket gallery window harbour mountain river bridge village island coast "
    "Friday Monday Tuesday Thursday Saturday London Tokyo Osaka Berlin Paris Sydney Chicago"
).split()
SLIDE_TITLES = [
    "Quarterly Results", "Project Timeline", "Customer Journey", "Design Principles", "Next Steps",
    "Why Latency Matters", "Release Checklist", "Open Questions", "Lessons Learned", "Roadmap 2027",
    "How Search Works", "Team Structure", "Market Overview", "Security Review", "Call for Papers",
]
STATIONS = [
    ("新宿", "しんじゅく", "Shinjuku"), ("渋谷", "しぶや", "Shibuya"), ("池袋", "いけぶくろ", "Ikebukuro"),
    ("品川", "しながわ", "Shinagawa"), ("上野", "うえの", "Ueno"), ("東京", "とうきょう", "Tokyo"),
    ("秋葉原", "あきはばら", "Akihabara"), ("横浜", "よこはま", "Yokohama"), ("京都", "きょうと", "Kyoto"),
    ("大阪", "おおさか", "Osaka"), ("名古屋", "なごや", "Nagoya"), ("博多", "はかた", "Hakata"),
    ("札幌", "さっぽろ", "Sapporo"), ("仙台", "せんだい", "Sendai"), ("神戸", "こうべ", "Kobe"),
    ("目黒", "めぐろ", "Meguro"), ("中野", "なかの", "Nakano"), ("浜松", "はままつ", "Hamamatsu"),
]
LINES_JA = ["山手線", "中央線", "京浜東北線", "総武線", "東海道線", "新幹線", "丸ノ内線", "銀座線"]
HEADLINES_JA = [
    "東京で初雪を観測", "新しい駅ビルが開業", "台風が列島に接近", "桜の開花を発表", "円相場が大きく変動",
    "高校野球で初優勝", "新型車両の運行開始", "各地で猛暑日を記録", "選挙の投票率が上昇", "大雨で交通に影響",
    "宇宙飛行士が帰還", "港に大型客船が到着", "地震の被害状況を調査", "新しい図書館が完成", "灯台の修復が完了",
]
SUBLINES_JA = [
    "東京都千代田区から中継", "気象庁によりますと", "午後三時現在の情報です", "関係者への取材で判明",
    "詳しくは番組のあとで", "現地の様子をお伝えします", "専門家に話を聞きました", "市民から喜びの声",
]
CAPTIONS_JA = [
    "ここで待っていてください", "明日の朝、駅で会いましょう", "本当にありがとうございました", "それは知らなかった",
    "まだ間に合うかもしれない", "この先は危ないから気をつけて", "昨日の話の続きをしよう", "もう一度やってみます",
    "パンを買ってきました", "海が見える部屋がいいです", "早く家に帰りたいな", "静かにしてください",
]
CAPTIONS_EN = [
    "I told you we would be late.", "Wait here until I call you.", "Did you see the lighthouse?",
    "We have to leave before dawn.", "Nobody knows what happened.", "Call me on Friday evening.",
    "That is not what I meant.", "Keep the door closed, please.", "Where did you put the keys?",
    "It has been a long winter.", "Let's take the early train.", "You should try the soup.",
]
HEADLINES_EN = [
    "Storm Warning for the Coast", "City Council Approves Budget", "New Bridge Opens to Traffic",
    "Markets Close Higher", "Record Heat Across the Region", "Rail Strike Called Off",
    "Museum Reopens After Repairs", "Election Turnout Rises", "Harbour Expansion Delayed",
    "Local Team Wins Final", "Snow Expected Overnight", "Library Extends Opening Hours",
]
SUBLINES_EN = [
    "LIVE from the city centre", "Officials expect delays until Monday", "Reporting by Anna Clarke",
    "Updated at 6:45 PM", "More on our website", "Watch the full interview tonight",
]
JA_PHRASES = [
    "入門", "灯台", "日本語", "動画", "検索", "字幕", "天気", "料理", "会議", "資料", "予定", "番組",
    "東京駅", "新宿駅", "始発", "終電", "特急", "各駅停車", "乗り換え", "出口", "改札", "売店",
]
MIXED_TEMPLATES = [
    "{en} 入門", "Swift {ja} 講座", "{ja} Tokyo Station", "次は {station}（{romaji}）", "Live Text で{ja}を選択",
    "第{n}回 {en} Meetup", "{ja}: {en} edition", "HLS 配信の{ja}", "{romaji} 駅 {n}番線", "Apple の{ja}",
]
SYMBOL_CODE = [
    ("def", "kw"), ("class", "kw"), ("return", "kw"), ("let", "kw"), ("func", "kw"), ("import", "kw"),
    ("if", "kw"), ("for", "kw"), ("in", "kw"), ("await", "kw"), ("guard", "kw"), ("else", "kw"),
]
IDENTIFIERS = [
    "frame", "player", "segment", "duration", "request", "session", "index", "result", "buffer",
    "decoder", "playlist", "variant", "bitrate", "timeline", "caption", "recognizer", "width", "height",
]

# --- drawing helpers --------------------------------------------------------------------


def font(name, size):
    path, index = FONTS[name]
    return ImageFont.truetype(path, size, index=index)


def noise_field(rng, octaves, base=4):
    """Smooth value noise, 0..1, HEIGHT×WIDTH."""
    field = np.zeros((HEIGHT, WIDTH), np.float32)
    weight = 1.0
    total = 0.0
    for octave in range(octaves):
        cells = base * (2 ** octave)
        small = rng.random((cells * HEIGHT // WIDTH + 2, cells + 2)).astype(np.float32)
        layer = np.asarray(Image.fromarray((small * 255).astype(np.uint8)).resize((WIDTH, HEIGHT), Image.BICUBIC), np.float32) / 255
        field += layer * weight
        total += weight
        weight *= 0.5
    return field / total


def background(rng, style):
    """A procedural picture: `photo` (sky, hills, blobs, grain), `video` (gradient and soft
    shapes, as a rendered title), `busy` (high-contrast clutter), `flat` (one colour + noise)."""
    np_rng = np.random.default_rng(rng.randrange(1 << 30))
    if style == "flat":
        colour = np.array([rng.randrange(256) for _ in range(3)], np.float32)
        picture = np.ones((HEIGHT, WIDTH, 3), np.float32) * colour
    elif style == "video":
        a = np.array([rng.randrange(256) for _ in range(3)], np.float32)
        b = np.array([rng.randrange(256) for _ in range(3)], np.float32)
        t = np.linspace(0, 1, WIDTH, dtype=np.float32)[None, :, None]
        s = np.linspace(0, 1, HEIGHT, dtype=np.float32)[:, None, None]
        mix = np.clip(0.6 * t + 0.4 * s, 0, 1)
        picture = a * (1 - mix) + b * mix
        picture = picture + (noise_field(np_rng, 3, 3)[:, :, None] - 0.5) * 60
    else:
        # Photo-like: a sky gradient, hills of layered noise, soft blobs (trees, people), grain.
        sky_top = np.array([rng.randrange(60, 200), rng.randrange(100, 220), rng.randrange(150, 256)], np.float32)
        sky_bottom = np.minimum(255, sky_top + 50)
        s = np.linspace(0, 1, HEIGHT, dtype=np.float32)[:, None, None]
        picture = sky_top * (1 - s) + sky_bottom * s
        picture = np.broadcast_to(picture, (HEIGHT, WIDTH, 3)).copy()
        n = noise_field(np_rng, 5, 3)
        horizon = HEIGHT * (0.35 + 0.3 * rng.random())
        ground = np.array([rng.randrange(30, 140), rng.randrange(60, 160), rng.randrange(20, 110)], np.float32)
        rows = np.arange(HEIGHT, dtype=np.float32)[:, None]
        land = (rows + (n - 0.5) * 260) > horizon
        picture[land] = ground * (0.6 + 0.8 * n[land][:, None])
    image = Image.fromarray(np.clip(picture, 0, 255).astype(np.uint8))
    draw = ImageDraw.Draw(image)
    shapes = {"photo": 25, "video": 8, "busy": 220, "flat": 0}[style]
    for _ in range(shapes):
        x, y = rng.randrange(-100, WIDTH), rng.randrange(-100, HEIGHT)
        r = rng.randrange(8, 60 if style == "busy" else 160)
        colour = tuple(rng.randrange(256) for _ in range(3))
        if style == "busy" and rng.random() < 0.5:
            draw.line([(x, y), (x + rng.randrange(-200, 200), y + rng.randrange(-200, 200))], fill=colour, width=rng.randrange(2, 12))
        else:
            draw.ellipse([x, y, x + r * 2, y + r * 2], fill=colour)
    if style in ("photo", "video"):
        image = image.filter(ImageFilter.GaussianBlur(6 if style == "photo" else 12))
    if style == "busy":
        image = image.filter(ImageFilter.GaussianBlur(1.2))
    grain = np_rng.normal(0, 6 if style != "flat" else 3, (HEIGHT, WIDTH, 1))
    return Image.fromarray(np.clip(np.asarray(image, np.float32) + grain, 0, 255).astype(np.uint8))


def language_of(text):
    japanese = sum(1 for c in text if is_japanese(c))
    letters = sum(1 for c in text if not c.isspace())
    return "ja" if letters and japanese / letters >= 0.3 else "en"


def is_japanese(c):
    o = ord(c)
    return 0x3000 <= o <= 0x30FF or 0x3400 <= o <= 0x9FFF or 0xFF00 <= o <= 0xFFEF


class Frame:
    """One picture being drawn, and the lines of text put on it."""

    def __init__(self, image):
        self.image = image.convert("RGB")
        self.draw = ImageDraw.Draw(self.image)
        self.lines = []

    def text(self, xy, text, fnt, fill, stroke=0, stroke_fill=None, record=True):
        self.draw.text(xy, text, font=fnt, fill=fill, stroke_width=stroke, stroke_fill=stroke_fill)
        if record:
            self.record(text, self.draw.textbbox(xy, text, font=fnt, stroke_width=stroke))

    def record(self, text, box):
        self.lines.append({"text": text, "lang": language_of(text), "box": [int(v) for v in box]})

    def runs(self, xy, runs, fnt):
        """Draws coloured runs on one line (code) and records them as one line."""
        x, y = xy
        start = x
        for text, colour in runs:
            self.draw.text((x, y), text, font=fnt, fill=colour)
            x += self.draw.textlength(text, font=fnt)
        line = "".join(t for t, _ in runs)
        if line.strip():
            box = self.draw.textbbox((start, y), line, font=fnt)
            self.record(line.rstrip(), box)

    def rect(self, box, fill):
        self.draw.rectangle(box, fill=fill)


def contrasting(rng, background_luma, light):
    if light:
        return tuple(rng.randrange(225, 256) for _ in range(3))
    return tuple(rng.randrange(0, 40) for _ in range(3))


def sentence(rng, words=(3, 7)):
    count = rng.randrange(*words)
    text = " ".join(rng.choice(WORDS) for _ in range(count))
    return text[0].upper() + text[1:]


# --- kinds ------------------------------------------------------------------------------


def draw_slide(rng):
    dark = rng.random() < 0.4
    bg = (rng.randrange(20, 50),) * 3 if dark else tuple(rng.randrange(235, 256) for _ in range(3))
    frame = Frame(background(rng, "flat").point(lambda v: v).resize((WIDTH, HEIGHT)))
    frame.rect([0, 0, WIDTH, HEIGHT], bg)
    ink = (240, 240, 240) if dark else (30, 30, 40)
    accent = tuple(rng.randrange(0, 180) for _ in range(3)) if not dark else tuple(rng.randrange(120, 256) for _ in range(3))
    title_font = font(rng.choice(LATIN_FONTS), rng.randrange(40, 56))
    frame.text((80, 60), rng.choice(SLIDE_TITLES), title_font, accent)
    body_font = font(rng.choice(LATIN_FONTS), rng.randrange(26, 34))
    y = 170
    for _ in range(rng.randrange(3, 6)):
        frame.draw.ellipse([92, y + 14, 104, y + 26], fill=ink)
        frame.text((130, y), sentence(rng), body_font, ink)
        y += int(body_font.size * 1.7)
    return frame


MONOKAI = {"bg": (39, 40, 34), "kw": (249, 38, 114), "fn": (166, 226, 46), "str": (230, 219, 116),
           "num": (174, 129, 255), "type": (102, 217, 239), "plain": (248, 248, 242), "comment": (117, 113, 94)}
DRACULA = {"bg": (40, 42, 54), "kw": (255, 121, 198), "fn": (80, 250, 123), "str": (241, 250, 140),
           "num": (189, 147, 249), "type": (139, 233, 253), "plain": (248, 248, 242), "comment": (98, 114, 164)}
SOLARIZED = {"bg": (0, 43, 54), "kw": (133, 153, 0), "fn": (38, 139, 210), "str": (42, 161, 152),
             "num": (211, 54, 130), "type": (181, 137, 0), "plain": (147, 161, 161), "comment": (88, 110, 117)}


def code_line(rng, theme, indent):
    pattern = rng.randrange(5)
    ident = rng.choice(IDENTIFIERS)
    other = rng.choice(IDENTIFIERS)
    p = theme
    runs = [("    " * indent, p["plain"])]
    if pattern == 0:
        runs += [("let ", p["kw"]), (ident, p["plain"]), (" = ", p["kw"]), (f"{other}.", p["plain"]),
                 (rng.choice(["count", "first", "last", "duration"]), p["fn"])]
    elif pattern == 1:
        runs += [("func ", p["kw"]), (ident.capitalize() if rng.random() < 0.2 else ident, p["fn"]),
                 ("(", p["plain"]), (other, p["plain"]), (": ", p["plain"]), (rng.choice(["Int", "String", "Double"]), p["type"]),
                 (") {", p["plain"])]
    elif pattern == 2:
        runs += [("return ", p["kw"]), (f"\"{rng.choice(WORDS)} {rng.choice(WORDS)}\"", p["str"])]
    elif pattern == 3:
        runs += [("if ", p["kw"]), (ident, p["plain"]), (" > ", p["kw"]), (str(rng.randrange(2, 999)), p["num"]), (" {", p["plain"])]
    else:
        runs += [("// ", p["comment"]), (sentence(rng, (2, 5)).lower(), p["comment"])]
    return runs


def draw_code(rng):
    theme = rng.choice([MONOKAI, DRACULA, SOLARIZED])
    frame = Frame(Image.new("RGB", (WIDTH, HEIGHT), theme["bg"]))
    size = rng.randrange(20, 28)
    fnt = font(rng.choice(MONO_FONTS), size)
    # A gutter with line numbers, dimmed, as an editor draws it.
    y = 40
    indent = 0
    for number in range(1, rng.randrange(10, 15)):
        frame.text((20, y), f"{number:>2}", fnt, theme["comment"])
        frame.runs((90, y), code_line(rng, theme, indent), fnt)
        indent = max(0, min(2, indent + rng.choice([-1, 0, 0, 1])))
        y += int(size * 1.55)
        if y > HEIGHT - 40:
            break
    return frame


def draw_station_sign(rng):
    frame = Frame(background(rng, "photo"))
    kanji, kana, romaji = rng.choice(STATIONS)
    colour = rng.choice([(0, 135, 60), (0, 90, 170), (240, 240, 240), (30, 30, 30), (200, 30, 40)])
    light = sum(colour) > 500
    ink = (20, 20, 20) if light else (255, 255, 255)
    x0, y0 = rng.randrange(60, 200), rng.randrange(80, 200)
    w, h = rng.randrange(760, 1000), rng.randrange(300, 380)
    frame.rect([x0, y0, x0 + w, y0 + h], colour)
    jf = rng.choice(JAPANESE_FONTS)
    big = font(jf, rng.randrange(86, 110))
    title = kanji + ("駅" if rng.random() < 0.5 else "")
    tw = frame.draw.textlength(title, font=big)
    frame.text((x0 + (w - tw) / 2, y0 + 20), title, big, ink)
    kf = font(jf, rng.randrange(34, 44))
    kw = frame.draw.textlength(kana, font=kf)
    frame.text((x0 + (w - kw) / 2, y0 + 40 + big.size), kana, kf, ink)
    rf = font(rng.choice(LATIN_FONTS), rng.randrange(30, 40))
    rw = frame.draw.textlength(romaji, font=rf)
    frame.text((x0 + (w - rw) / 2, y0 + 60 + big.size + kf.size), romaji, rf, ink)
    # A platform strip below the sign.
    strip_y = y0 + h + 20
    frame.rect([x0, strip_y, x0 + w, strip_y + 70], (250, 250, 250))
    pf = font(jf, 40)
    frame.text((x0 + 20, strip_y + 12), f"{rng.randrange(1, 16)}番線", pf, (20, 20, 20))
    frame.text((x0 + 220, strip_y + 12), rng.choice(LINES_JA), pf, colour if not light else (20, 20, 20))
    return frame


def draw_caption(rng):
    frame = Frame(background(rng, "busy"))
    japanese = rng.random() < 0.5
    lines = rng.sample(CAPTIONS_JA if japanese else CAPTIONS_EN, rng.randrange(1, 3))
    fnt = font(rng.choice(JAPANESE_FONTS if japanese else ["dejavu_bold", "liberation_bold", "sans_cjk_bold"]), rng.randrange(40, 54))
    fill = rng.choice([(255, 255, 255), (255, 240, 80)])
    y = HEIGHT - 60 - len(lines) * int(fnt.size * 1.4)
    for line in lines:
        w = frame.draw.textlength(line, font=fnt)
        frame.text(((WIDTH - w) / 2, y), line, fnt, fill, stroke=rng.randrange(3, 6), stroke_fill=(0, 0, 0))
        y += int(fnt.size * 1.4)
    return frame


def lower_third(rng, japanese):
    frame = Frame(background(rng, rng.choice(["photo", "video"])))
    bar = rng.choice([(180, 20, 30), (10, 40, 110), (240, 240, 240), (20, 20, 20)])
    light = sum(bar) > 500
    ink = (15, 15, 15) if light else (255, 255, 255)
    top = HEIGHT - rng.randrange(170, 230)
    frame.rect([40, top, WIDTH - 40, top + 90], bar)
    frame.rect([40, top + 90, WIDTH - 40, top + 140], (250, 250, 250) if not light else (30, 30, 30))
    if japanese:
        hf = font(rng.choice(JAPANESE_FONTS), rng.randrange(50, 62))
        sf = font(rng.choice(JAPANESE_FONTS), rng.randrange(28, 34))
        head, sub = rng.choice(HEADLINES_JA), rng.choice(SUBLINES_JA)
    else:
        hf = font(rng.choice(["dejavu_bold", "liberation_bold", "sans_cjk_bold"]), rng.randrange(46, 58))
        sf = font(rng.choice(LATIN_FONTS), rng.randrange(26, 32))
        head, sub = rng.choice(HEADLINES_EN), rng.choice(SUBLINES_EN)
    frame.text((70, top + (90 - hf.size) / 2 - hf.size * 0.12), head, hf, ink)
    frame.text((70, top + 90 + (50 - sf.size) / 2 - sf.size * 0.12), sub, sf, (20, 20, 20) if not light else (240, 240, 240))
    # The channel's clock in the corner.
    cf = font("dejavu_bold", 30)
    frame.rect([WIDTH - 180, 40, WIDTH - 40, 90], (0, 0, 0))
    frame.text((WIDTH - 160, 48), f"{rng.randrange(0, 24):02d}:{rng.randrange(0, 60):02d}", cf, (255, 255, 255))
    return frame


def draw_lower_third_en(rng):
    return lower_third(rng, japanese=False)


def draw_lower_third_ja(rng):
    return lower_third(rng, japanese=True)


def draw_small_text(rng):
    light_bg = rng.random() < 0.6
    frame = Frame(background(rng, "video"))
    x0, y0 = rng.randrange(40, 200), rng.randrange(40, 200)
    panel = (245, 245, 240) if light_bg else (25, 28, 35)
    frame.rect([x0 - 20, y0 - 20, x0 + 820, y0 + 400], panel)
    ink = (20, 20, 20) if light_bg else (235, 235, 235)
    y = y0
    for index in range(rng.randrange(8, 13)):
        size = rng.randrange(14, 19)
        if rng.random() < 0.35:
            text = rng.choice(HEADLINES_JA + SUBLINES_JA)
            fnt = font(rng.choice(JAPANESE_FONTS), size)
        else:
            text = sentence(rng, (4, 9))
            fnt = font(rng.choice(LATIN_FONTS), size)
        frame.text((x0, y), text, fnt, ink)
        y += int(size * 1.9)
        if y > y0 + 380:
            break
    return frame


def draw_large_text(rng):
    frame = Frame(background(rng, rng.choice(["video", "photo"])))
    japanese = rng.random() < 0.5
    size = rng.randrange(60, 91)
    text = rng.choice(JA_PHRASES + HEADLINES_JA[:6]) if japanese else rng.choice(SLIDE_TITLES + HEADLINES_EN[:4])
    fnt = font(rng.choice(JAPANESE_FONTS if japanese else LATIN_FONTS), size)
    while frame.draw.textlength(text, font=fnt) > WIDTH - 120:
        text = text.rsplit(" ", 1)[0] if " " in text else text[:-1]
    w = frame.draw.textlength(text, font=fnt)
    x, y = (WIDTH - w) / 2, rng.randrange(120, HEIGHT - 200)
    box = frame.draw.textbbox((x, y), text, font=fnt)
    frame.rect([box[0] - 30, box[1] - 20, box[2] + 30, box[3] + 20], (250, 250, 250) if rng.random() < 0.5 else (15, 15, 20))
    panel_light = frame.image.getpixel((box[0] - 10, box[1] - 10))[0] > 128
    frame.text((x, y), text, fnt, (20, 20, 20) if panel_light else (245, 245, 245))
    return frame


def draw_noisy(rng):
    frame = Frame(background(rng, "photo"))
    japanese = rng.random() < 0.4
    y = rng.randrange(80, 200)
    for _ in range(rng.randrange(2, 4)):
        text = rng.choice(HEADLINES_JA + CAPTIONS_JA) if japanese else sentence(rng, (3, 6))
        fnt = font(rng.choice(JAPANESE_FONTS if japanese else LATIN_FONTS), rng.randrange(34, 48))
        frame.text((rng.randrange(60, 200), y), text, fnt, (255, 255, 255) if rng.random() < 0.5 else (10, 10, 10),
                   stroke=1, stroke_fill=(128, 128, 128))
        y += int(fnt.size * 1.8)
    # Heavy noise over everything, as a low-light camera gives.
    np_rng = np.random.default_rng(rng.randrange(1 << 30))
    pixels = np.asarray(frame.image, np.float32) + np_rng.normal(0, rng.randrange(18, 30), (HEIGHT, WIDTH, 1))
    frame.image = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8))
    frame.draw = ImageDraw.Draw(frame.image)
    return frame


def draw_rotated(rng):
    base = draw_slide(rng) if rng.random() < 0.5 else draw_station_sign(rng)
    angle = rng.choice([-1, 1]) * (2 + 2 * rng.random())
    rotated = base.image.rotate(angle, resample=Image.BICUBIC, fillcolor=(128, 128, 128))
    frame = Frame(rotated)
    # Boxes of the rotated lines: the rotated corners' bounding box.
    theta = math.radians(angle)
    cx, cy = WIDTH / 2, HEIGHT / 2
    for line in base.lines:
        x0, y0, x1, y1 = line["box"]
        corners = []
        for x, y in [(x0, y0), (x1, y0), (x0, y1), (x1, y1)]:
            dx, dy = x - cx, y - cy
            corners.append((cx + dx * math.cos(theta) + dy * math.sin(theta), cy - dx * math.sin(theta) + dy * math.cos(theta)))
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        frame.lines.append({**line, "box": [int(min(xs)), int(min(ys)), int(max(xs)), int(max(ys))]})
    return frame


def draw_mixed(rng):
    frame = Frame(background(rng, rng.choice(["video", "flat"])))
    panel_light = rng.random() < 0.6
    frame.rect([60, 60, WIDTH - 60, HEIGHT - 60], (248, 248, 245) if panel_light else (20, 24, 30))
    ink = (20, 20, 20) if panel_light else (240, 240, 240)
    y = 110
    for _ in range(rng.randrange(3, 6)):
        kanji, kana, romaji = rng.choice(STATIONS)
        text = rng.choice(MIXED_TEMPLATES).format(
            en=rng.choice(["Swift", "Python", "HLS", "Live Text", "Design", "Rust"]), ja=rng.choice(JA_PHRASES),
            station=kanji, romaji=romaji, n=rng.randrange(1, 20))
        fnt = font(rng.choice(["sans_cjk", "sans_cjk_bold", "serif_cjk", "ipa_gothic", "takao_gothic"]), rng.randrange(34, 46))
        frame.text((110, y), text, fnt, ink)
        y += int(fnt.size * 2)
        if y > HEIGHT - 140:
            break
    return frame


def draw_prices_times(rng):
    frame = Frame(background(rng, "photo"))
    board = (15, 15, 15) if rng.random() < 0.5 else (250, 250, 245)
    ink = (255, 200, 40) if board[0] < 128 else (20, 20, 20)
    frame.rect([120, 80, WIDTH - 120, HEIGHT - 80], board)
    mono = font(rng.choice(["dejavu_bold", "liberation_bold", "dejavu_mono"]), rng.randrange(34, 44))
    jfont = font(rng.choice(JAPANESE_FONTS), mono.size)
    y = 120
    for _ in range(rng.randrange(4, 7)):
        pattern = rng.randrange(4)
        if pattern == 0:
            text = f"{rng.randrange(0, 24):02d}:{rng.randrange(0, 60):02d}  {rng.choice(['London', 'Paris', 'Osaka', 'Berlin', 'Kyoto'])}  Platform {rng.randrange(1, 13)}"
            fnt = mono
        elif pattern == 1:
            text = f"{rng.choice(['Coffee', 'Sandwich', 'Ticket', 'Soup', 'Cake'])} ${rng.randrange(1, 40)}.{rng.randrange(0, 100):02d}"
            fnt = mono
        elif pattern == 2:
            text = f"{rng.choice(['ラーメン', 'カレー', 'コーヒー', '定食', '弁当'])} ¥{rng.randrange(3, 20) * 50:,}"
            fnt = jfont
        else:
            text = f"{rng.randrange(1, 13)}月{rng.randrange(1, 29)}日 {rng.randrange(6, 23)}時{rng.randrange(0, 60):02d}分 発"
            fnt = jfont
        frame.text((170, y), text, fnt, ink)
        y += int(mono.size * 1.75)
        if y > HEIGHT - 150:
            break
    return frame


def draw_light_on_colour(rng):
    frame = Frame(background(rng, rng.choice(["photo", "video"])))
    colour = rng.choice([(0, 70, 160), (0, 120, 70), (170, 30, 40), (200, 110, 0), (90, 40, 140), (0, 130, 140)])
    x0, y0 = rng.randrange(80, 300), rng.randrange(80, 220)
    frame.rect([x0, y0, x0 + rng.randrange(650, 880), y0 + rng.randrange(260, 360)], colour)
    y = y0 + 30
    japanese = rng.random() < 0.4
    for _ in range(rng.randrange(2, 4)):
        text = rng.choice(HEADLINES_JA + SUBLINES_JA) if japanese else rng.choice(HEADLINES_EN + CAPTIONS_EN)
        fnt = font(rng.choice(JAPANESE_FONTS if japanese else LATIN_FONTS), rng.randrange(34, 46))
        while frame.draw.textlength(text, font=fnt) > 600:
            text = text.rsplit(" ", 1)[0] if " " in text else text[:-1]
        frame.text((x0 + 30, y), text, fnt, (255, 255, 255))
        y += int(fnt.size * 1.7)
    return frame


DRAW = {kind: globals()[f"draw_{kind}"] for kind in KINDS}

# --- the set ----------------------------------------------------------------------------


def split_of(index):
    return "tuning" if index % 4 in (0, 1) else "held-out"


def crf_of(index):
    return 23 if index % 2 == 0 else 32


def ffmpeg(*arguments):
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-nostdin", "-y", *arguments], check=True)


def generate(out, per_kind):
    out.mkdir(parents=True, exist_ok=True)
    truth_path = out / "truth.json"
    if truth_path.exists():
        existing = json.loads(truth_path.read_text())
        if existing.get("version") == VERSION and existing.get("perKind") == per_kind:
            return existing
    source = out / "source"
    decoded = out / "decoded"
    for folder in (source, decoded):
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
    frames = []
    for kind_number, kind in enumerate(KINDS):
        for index in range(per_kind):
            seed = 1000 * (kind_number + 1) + index
            frame = DRAW[kind](random.Random(seed))
            frame_id = f"{kind}-{index:02d}"
            frame.image.save(source / f"{frame_id}.png")
            frames.append({"id": frame_id, "kind": kind, "index": index, "seed": seed, "split": split_of(index),
                           "crf": crf_of(index), "lines": [l for l in frame.lines if l["text"].strip()]})
    # One video per encode; each picture is held for one second (5 frames at 5 fps), so the
    # encoder sees a cut and then still frames, as in a paused video.
    for crf in (23, 32):
        members = [f for f in frames if f["crf"] == crf]
        listing = out / f"crf{crf}.txt"
        # Absolute paths: ffmpeg's concat demuxer reads relative ones from the listing's folder.
        pictures = source.resolve()
        listing.write_text("".join(f"file '{pictures / (f['id'] + '.png')}'\nduration 1\n" for f in members)
                           + f"file '{pictures / (members[-1]['id'] + '.png')}'\n")
        video = out / f"crf{crf}.mp4"
        ffmpeg("-f", "concat", "-safe", "0", "-i", str(listing), "-vf", "fps=5,format=yuv420p", "-c:v", "libx264",
               "-preset", "medium", "-crf", str(crf), "-movflags", "+faststart", str(video))
        for position, f in enumerate(members):
            f["video"] = video.name
            f["time"] = position + 0.5
        # Decoded back: the exact pictures a player shows at those times.
        # (frame 5n + 2, at n + 0.4 s, is the one on screen at n + 0.5 s).
        ffmpeg("-i", str(video), "-vf", "select='eq(mod(n\\,5)\\,2)'", "-fps_mode", "passthrough", "-start_number", "0",
               str(out / f"crf{crf}-%04d.png"))
        for position, f in enumerate(members):
            (out / f"crf{crf}-{position:04d}.png").rename(decoded / f"{f['id']}.png")
        listing.unlink()
    shutil.rmtree(source)
    truth = {"version": VERSION, "perKind": per_kind, "size": [WIDTH, HEIGHT], "kinds": KINDS, "frames": frames}
    truth_path.write_text(json.dumps(truth, ensure_ascii=False, indent=1))
    return truth


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--per-kind", type=int, default=12)
    arguments = parser.parse_args()
    truth = generate(arguments.out, arguments.per_kind)
    print(f"{len(truth['frames'])} frames in {arguments.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
