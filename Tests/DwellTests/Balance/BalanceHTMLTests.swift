import Foundation
import Testing

// `dwell balance --html`: the page's charts render in headless Chromium (a screenshot that is not blank).
@testable import DwellBalance

@Suite struct BalanceHTMLTests {
  static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }
  static let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }
  /// CI sets it (and installs Chromium), so the test cannot pass there by being skipped.
  static let required = ProcessInfo.processInfo.environment["DWELL_REQUIRE_CHROMIUM"] == "1"

  /// Reads a PNG (8-bit RGB or RGBA, as Chromium writes) and prints the number of pixels
  /// of each chart colour and of any colour that is not white or near-white.
  static let counter = """
    import sys, zlib, struct
    data = open(sys.argv[1], 'rb').read()
    pos, idat, w, h, ctype = 8, b'', 0, 0, 0
    while pos < len(data):
        n, kind = struct.unpack('>I4s', data[pos:pos + 8]); body = data[pos + 8:pos + 8 + n]; pos += 12 + n
        if kind == b'IHDR': w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
        elif kind == b'IDAT': idat += body
    bpp = 4 if ctype == 6 else 3
    raw, stride, prev, out = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0; b = prev[i]; c = prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out.append(line); prev = line
    colours = {'blue': (0x1f, 0x77, 0xb4), 'orange': (0xff, 0x7f, 0x0e), 'green': (0x2c, 0xa0, 0x2c)}
    counts = dict.fromkeys(colours, 0); ink = 0
    for line in out:
        for x in range(0, stride, bpp):
            px = tuple(line[x:x + 3])
            if min(px) < 230: ink += 1
            for name, c in colours.items():
                if all(abs(px[k] - c[k]) < 12 for k in range(3)): counts[name] += 1
    print(w, h, ink, counts['blue'], counts['orange'], counts['green'])
    """

  /// However many rules, no two lines look alike (colour and dashes), and the legend shows
  /// each line as it is drawn; areas and bars get distinct colours too. Past ten rules the
  /// chart is small multiples: a panel a rule, titled with it, its line alone in it.
  @Test func everyRuleHasItsOwnLook() async throws {
    #expect(Set((0..<2000).map { "\(BalanceReport.line($0))" }).count == 2000)
    #expect(Set((0..<2000).map(BalanceReport.fill)).count == 2000)
    let directory = TemporaryStore()
    let rules = (1...25).map { #"{"id":"r\#($0)","when":{"screen":"Lessons","seconds":\#($0 * 30)}}"# }
    let path = directory.directory + "/many.json"
    try "[\(rules.joined(separator: ","))]".write(toFile: path, atomically: true, encoding: .utf8)
    let population = try PersonaFile.parse(BalanceTests.personas, file: "personas.lua")
    let pack = try BalancePack(path: path)
    let run = BalanceRun(pack: pack, population: population, users: 4, days: 3, seed: 2, threads: 1)
    let report = BalanceReport(stats: try await run.run(), pack: pack, population: population, seed: 2)
    let chart = try #require(report.html.components(separatedBy: "<svg id=\"unlock-curves\"").dropFirst().first)
    let svg = chart.components(separatedBy: "</svg>")[0]
    func looks(_ tag: String) -> [String] {
      svg.components(separatedBy: "<\(tag) ").dropFirst().map { element in
        let attributes = element.prefix { $0 != ">" }
        return ["stroke=", "stroke-dasharray="].map { name in
          attributes.components(separatedBy: " " + name).dropFirst().first?.split(separator: "\"")[0] ?? "-"
        }.joined(separator: " ")
      }
    }
    let lines = looks("polyline")
    #expect(lines.count == 25 && Set(lines).count == 25, "\(lines)")
    let titles = svg.components(separatedBy: "<tspan font-weight=\"bold\">").dropFirst().map {
      $0.components(separatedBy: "</tspan>")[0]
    }
    #expect(titles == (1...25).map { "r\($0)" }, "a panel a rule, in the pack's order")
    let polylines = svg.components(separatedBy: "<polyline ").dropFirst()
    #expect(polylines.enumerated().allSatisfy { $0.element.contains("<title>r\($0.offset + 1)</title>") })
    // Ten rules or fewer: one chart, the legend drawing each line as it is.
    let few = try await Self.report(rules: 10, seconds: 30)
    let one = try #require(few.html.components(separatedBy: "<svg id=\"unlock-curves\"").dropFirst().first)
    let oneSVG = one.components(separatedBy: "</svg>")[0]
    #expect(!oneSVG.contains("<tspan"))
    #expect(oneSVG.components(separatedBy: "<polyline ").count - 1 == 10)
    #expect(oneSVG.components(separatedBy: "<text ").count - 1 >= 10 + 5, "a legend entry a rule, and the axes")
  }

  /// A report of `rules` rules (rule N: N x `seconds` in Lessons) over 4 users and 3 days.
  static func report(rules count: Int, seconds: Int) async throws -> BalanceReport {
    let directory = TemporaryStore()
    let rules = (1...count).map { #"{"id":"r\#($0)","when":{"screen":"Lessons","seconds":\#($0 * seconds)}}"# }
    let path = directory.directory + "/many.json"
    try "[\(rules.joined(separator: ","))]".write(toFile: path, atomically: true, encoding: .utf8)
    let population = try PersonaFile.parse(BalanceTests.personas, file: "personas.lua")
    let pack = try BalancePack(path: path)
    let run = BalanceRun(pack: pack, population: population, users: 4, days: 3, seed: 2, threads: 1)
    return BalanceReport(stats: try await run.run(), pack: pack, population: population, seed: 2)
  }

  /// Comparing packs of more than ten rules, every new rule is solid and every old one
  /// dashed, as the key says, each rule in a colour no other rule has (past ten, new rules
  /// were dashed and took the colours of earlier rules, #26).
  @Test func aComparisonOfManyRulesKeepsOldDashedAndNewSolid() async throws {
    let directory = TemporaryStore()
    let population = try PersonaFile.parse(BalanceTests.personas, file: "personas.lua")
    var reports: [BalanceReport] = []
    for (name, seconds) in [("old", 60), ("new", 30)] {
      let rules = (1...25).map { #"{"id":"r\#($0)","when":{"screen":"Lessons","seconds":\#($0 * seconds)}}"# }
      let path = directory.directory + "/\(name).json"
      try "[\(rules.joined(separator: ","))]".write(toFile: path, atomically: true, encoding: .utf8)
      let pack = try BalancePack(path: path)
      let run = BalanceRun(pack: pack, population: population, users: 4, days: 3, seed: 2, threads: 1)
      reports.append(BalanceReport(stats: try await run.run(), pack: pack, population: population, seed: 2))
    }
    let page = BalanceComparison(old: reports[0], new: reports[1]).html
    let chart = try #require(page.components(separatedBy: "<svg id=\"unlock-curves\"").dropFirst().first)
    let lines = chart.components(separatedBy: "</svg>")[0].components(separatedBy: "<polyline ").dropFirst().map {
      $0.components(separatedBy: "</polyline>")[0]
    }
    func colour(_ line: String) -> String {
      line.components(separatedBy: "stroke=\"").dropFirst().first?.components(separatedBy: "\"").first ?? ""
    }
    let old = lines.filter { $0.contains(" (old)</title>") }
    let new = lines.filter { !$0.contains(" (old)</title>") }
    #expect(old.count == 25 && new.count == 25)
    #expect(new.allSatisfy { !$0.contains("stroke-dasharray") }, "a new rule drawn dashed")
    #expect(old.allSatisfy { $0.contains("stroke-dasharray") }, "an old rule drawn solid")
    #expect(Set(new.map(colour)).count == 25, "\(new.map(colour))")
    #expect(old.map(colour) == new.map(colour), "a rule's old and new lines differ in colour")
  }

  @Test(
    .enabled(
      if: (chromium != nil && python != nil) || required,
      "needs headless Chromium and python3 (CI installs Chromium and sets DWELL_REQUIRE_CHROMIUM=1)"))
  func chartsRenderInChromium() async throws {
    let chromium = try #require(Self.chromium, "Chromium is required here but not installed")
    let python = try #require(Self.python, "python3 is required to read the screenshot")
    let directory = TemporaryStore()
    let population = try PersonaFile.parse(BalanceTests.personas, file: "personas.lua")
    let pack = try BalancePack(path: BalanceTests.path("rules/learning"))
    let run = BalanceRun(pack: pack, population: population, users: 12, days: 10, seed: 2, threads: 2)
    let report = BalanceReport(stats: try await run.run(), pack: pack, population: population, seed: 2)
    let page = directory.directory + "/balance.html"
    try report.html.write(toFile: page, atomically: true, encoding: .utf8)
    #expect(!report.html.contains("<script"), "the page must not need scripts")
    #expect(!report.html.contains("http://") || report.html.contains("http://www.w3.org/2000/svg"))
    let shot = directory.directory + "/shot.png"
    let browser = try Subprocess.run(
      chromium,
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1000,1500",
        "--user-data-dir=" + directory.directory + "/profile", "--screenshot=" + shot, "file://" + page,
      ], timeout: .seconds(120))
    #expect(browser.status == 0, "chromium: \(browser.stderr.suffix(600))")
    let counted = try Subprocess.run(python, ["-c", Self.counter, shot], timeout: .seconds(120))
    #expect(counted.status == 0, "\(counted.stderr.suffix(600))")
    let numbers = counted.stdout.split(separator: " ").compactMap {
      Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    try #require(numbers.count == 6, "\(counted.stdout)")
    let (width, height, ink) = (numbers[0], numbers[1], numbers[2])
    #expect(width == 1000 && height == 1500)
    // Not blank: a real share of the page is drawn, in the charts' colours.
    #expect(ink > width * height / 50, "only \(ink) drawn pixels")
    #expect(numbers[3] > 500 && numbers[4] > 200, "chart colours (blue, orange, green): \(numbers[3...5])")
  }
}

extension BalanceHTMLTests {
  /// Reads a PNG as `counter` does and prints, for each panel given as JSON
  /// (`[[x, y, width, height, colour], ...]`, colour `#rrggbb` or `hsl(h, s%, l%)`), the
  /// pixels of its colour inside it and the dark (text) pixels in its title strip.
  static let panelCounter =
    counter.components(separatedBy: "colours = {")[0] + """
      import json, colorsys
      def rgb(text):
          if text.startswith('#'): return tuple(int(text[i:i + 2], 16) for i in (1, 3, 5))
          h, s, l = [float(v.strip(' %')) for v in text[4:-1].split(',')]
          return tuple(round(c * 255) for c in colorsys.hls_to_rgb(h / 360, l / 100, s / 100))
      result = []
      for x, y, w, h, colour in json.loads(sys.argv[2]):
          c = rgb(colour); line_px = 0; text_px = 0
          for row in range(int(y), int(y + h)):
              for col in range(int(x), int(x + w)):
                  px = tuple(out[row][col * bpp:col * bpp + 3])
                  if all(abs(px[k] - c[k]) < 16 for k in range(3)): line_px += 1
                  if row < y + 22 and max(px) < 120: text_px += 1
          result.append('%d/%d' % (line_px, text_px))
      print(' '.join(result))
      """

  /// Past ten rules the unlock curves are small multiples that stay readable in a browser:
  /// every panel shows its own rule's line, in its colour, under a title.
  @Test(
    .enabled(
      if: (chromium != nil && python != nil) || required,
      "needs headless Chromium and python3 (CI installs Chromium and sets DWELL_REQUIRE_CHROMIUM=1)"))
  func smallMultiplesRenderInChromium() async throws {
    let chromium = try #require(Self.chromium, "Chromium is required here but not installed")
    let python = try #require(Self.python, "python3 is required to read the screenshot")
    let report = try await Self.report(rules: 25, seconds: 30)
    let chart = try #require(report.html.components(separatedBy: "<svg id=\"unlock-curves\"").dropFirst().first)
    let svg = "<svg id=\"unlock-curves\"" + chart.components(separatedBy: "</svg>")[0] + "</svg>"
    let directory = TemporaryStore()
    let page = directory.directory + "/panels.html"
    try BalanceReport.page(title: "panels", body: svg).replacingOccurrences(of: "margin: 24px", with: "margin: 0")
      .replacingOccurrences(of: "margin: 8px 0 24px", with: "margin: 0").replacingOccurrences(
        of: "border: 1px solid #ddd", with: "border: 0"
      )
      .write(toFile: page, atomically: true, encoding: .utf8)
    let shot = directory.directory + "/panels.png"
    let browser = try Subprocess.run(
      chromium,
      [
        "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=920,1100",
        "--user-data-dir=" + directory.directory + "/profile", "--screenshot=" + shot, "file://" + page,
      ], timeout: .seconds(120))
    #expect(browser.status == 0, "chromium: \(browser.stderr.suffix(600))")
    let panels = (0..<25).map { index -> String in
      let frame = BalanceReport.panelFrame(index)
      return "[\(frame.x), \(frame.y), \(frame.width), \(frame.height), \"\(BalanceReport.fill(index))\"]"
    }
    let counted = try Subprocess.run(
      python, ["-c", Self.panelCounter, shot, "[" + panels.joined(separator: ",") + "]"], timeout: .seconds(120))
    #expect(counted.status == 0, "\(counted.stderr.suffix(600))")
    let cells = counted.stdout.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    try #require(cells.count == 25, "\(counted.stdout)")
    for (index, cell) in cells.enumerated() {
      let parts = cell.split(separator: "/").compactMap { Int($0) }
      // A 2-pixel line across a 178-pixel plot, and a title of a few characters.
      #expect(parts.count == 2 && parts[0] > 150, "panel \(index + 1): \(cell) pixels of its colour")
      #expect(parts.count == 2 && parts[1] > 15, "panel \(index + 1): \(cell): no title")
    }
  }
}
