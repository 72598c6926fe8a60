import Dwell
import Testing

/// The JSON value tree's parser and writer against a table of vectors: RFC 8259's examples
/// and grammar edges, surrogate escapes, deep nesting, numbers past `Double`, repeated keys.
@Suite struct JSONTests {
  /// An input and what it must parse to, or a piece of the error it must raise.
  struct Vector: CustomTestStringConvertible, Sendable {
    var name: String
    var input: String
    var expected: Result
    enum Result: Sendable {
      case value(JSONValue)
      case error(String)
    }
    var testDescription: String { name }

    init(_ name: String, _ input: String, _ value: JSONValue) {
      (self.name, self.input, expected) = (name, input, .value(value))
    }
    init(_ name: String, _ input: String, error: String) {
      (self.name, self.input, expected) = (name, input, .error(error))
    }
  }

  static func number(_ literal: String) -> JSONValue { .number(Double(literal) ?? .nan, literal: literal) }

  static let vectors: [Vector] = [
    // RFC 8259, section 13: the two examples.
    Vector(
      "RFC 8259 object example",
      #"""
      {"Image": {"Width": 800, "Height": 600, "Title": "View from 15th Floor",
        "Thumbnail": {"Url": "http://www.example.com/image/481989943", "Height": 125, "Width": 100},
        "Animated" : false, "IDs": [116, 943, 234, 38793]}}
      """#,
      .object([
        (
          "Image",
          .object([
            ("Width", number("800")), ("Height", number("600")), ("Title", .string("View from 15th Floor")),
            (
              "Thumbnail",
              .object([
                ("Url", .string("http://www.example.com/image/481989943")), ("Height", number("125")),
                ("Width", number("100")),
              ])
            ),
            ("Animated", .bool(false)),
            ("IDs", .array([number("116"), number("943"), number("234"), number("38793")])),
          ])
        )
      ])),
    Vector(
      "RFC 8259 array example", #"[{"precision": "zip", "Latitude": 37.7668, "Zip": "94107"}]"#,
      .array([.object([("precision", .string("zip")), ("Latitude", number("37.7668")), ("Zip", .string("94107"))])])),
    // Scalars at the top level and the whitespace around them.
    Vector("a bare number", " \t\r\n 42 \n", number("42")),
    Vector("a bare string", #""hi""#, .string("hi")),
    Vector("literals", "[true,false,null]", .array([.bool(true), .bool(false), .null])),
    Vector("empty containers", #"{"a":[],"b":{}}"#, .object([("a", .array([])), ("b", .object([]))])),
    // Numbers.
    Vector("negative zero", "-0", number("-0")),
    Vector(
      "fraction and exponent", "[1.5e3, 1E-2, -2.25E+1]", .array([number("1.5e3"), number("1E-2"), number("-2.25E+1")])),
    Vector(
      "an integer past 64 bits keeps its text", "123456789012345678901234567890",
      number("123456789012345678901234567890")),
    Vector("the largest double", "1.7976931348623157e308", number("1.7976931348623157e308")),
    Vector("a number past Double", "1e400", error: "number out of range"),
    Vector("a negative number past Double", "-1e400", error: "number out of range"),
    Vector("a leading zero", "01", error: "unexpected text after the value"),
    Vector("a leading plus", "+1", error: "unexpected character"),
    Vector("a bare dot", ".5", error: "unexpected character"),
    Vector("no digits after the dot", "1.", error: "invalid number"),
    Vector("no digits in the exponent", "1e+", error: "invalid number"),
    Vector("a lone minus", "-", error: "invalid number"),
    Vector("NaN", "NaN", error: "unexpected character"),
    Vector("Infinity", "[Infinity]", error: "unexpected character"),
    // Strings and escapes.
    Vector(
      "every short escape", #""\" \\ \/ \b \f \n \r \t""#, .string("\" \\ / \u{8} \u{C} \n \r \t")),
    Vector("a BMP escape", #""caf\u00e9 \u00E9""#, .string("café é")),
    Vector("raw UTF-8", #""Grüße, 東京 😀""#, .string("Grüße, 東京 😀")),
    Vector("a surrogate pair", #""\uD83D\uDE00""#, .string("😀")),
    Vector("a lone high surrogate before an escape", #""X\uD800\u0041Y""#, .string("X\u{FFFD}AY")),
    Vector("a lone high surrogate before text", #""X\uD800AY""#, .string("X\u{FFFD}AY")),
    Vector("a lone high surrogate at the end", #""X\uD800""#, .string("X\u{FFFD}")),
    Vector("a lone low surrogate", #""\uDC00X""#, .string("\u{FFFD}X")),
    Vector("two high surrogates then a low", #""\uD800\uD83D\uDE00""#, .string("\u{FFFD}😀")),
    Vector("a high surrogate before a bad escape", #""\uD800\uZZZZ""#, error: "invalid \\u escape"),
    Vector("a short \\u escape", #""\u12""#, error: "invalid \\u escape"),
    Vector("an unknown escape", #""\x41""#, error: "invalid escape"),
    Vector("a raw control character", "\"a\u{1}b\"", error: "control character in string"),
    Vector("a raw newline", "\"a\nb\"", error: "control character in string"),
    Vector("an unterminated string", #""abc"#, error: "unterminated string"),
    Vector("single quotes", "'a'", error: "unexpected character"),
    // Objects and arrays.
    Vector(
      "repeated keys are kept, in order", #"{"a":1,"b":2,"a":3}"#,
      .object([("a", number("1")), ("b", number("2")), ("a", number("3"))])),
    Vector("a trailing comma in an array", "[1,]", error: "unexpected character"),
    Vector("a trailing comma in an object", #"{"a":1,}"#, error: "expected a key"),
    Vector("a key that is not a string", "{1:2}", error: "expected a key"),
    Vector("a missing colon", #"{"a" 1}"#, error: "expected ':'"),
    Vector("a missing comma", "[1 2]", error: "expected ',' or ']'"),
    Vector("an unclosed array", "[1,2", error: "unexpected end of input"),
    Vector("an unclosed object", #"{"a":1"#, error: "unexpected end of input"),
    Vector("two values", "1 2", error: "unexpected text after the value"),
    Vector("nothing", "", error: "unexpected end of input"),
    Vector("only whitespace", "  \n", error: "unexpected end of input"),
    Vector("a misspelt literal", "tru", error: "invalid literal"),
    // Nesting: 512 levels parse, the 513th is refused, and far deeper input does not
    // exhaust the stack.
    Vector(
      "512 nested arrays", String(repeating: "[", count: 512) + String(repeating: "]", count: 512),
      (1..<512).reduce(JSONValue.array([])) { inner, _ in .array([inner]) }),
    Vector(
      "513 nested arrays", String(repeating: "[", count: 513) + String(repeating: "]", count: 513),
      error: "nesting too deep"),
    Vector("a million open brackets", String(repeating: "[", count: 1_000_000), error: "nesting too deep"),
    Vector(
      "deeply nested objects", String(repeating: #"{"a":"#, count: 600) + "1" + String(repeating: "}", count: 600),
      error: "nesting too deep"),
  ]

  @Test(arguments: vectors) func parses(_ vector: Vector) {
    let result = Result { () throws(JSONError) in try JSONParser.parse(vector.input) }
    switch (vector.expected, result) {
    case (.value(let expected), .success(let value)):
      #expect(value == expected)
      // Literals survive exactly, so writing gives back numbers as they were written.
      if case .number(_, let literal) = expected { #expect(value.rendered() == literal) }
    case (.error(let message), .failure(let error)):
      #expect(error.message == message)
      #expect((0...vector.input.utf8.count).contains(error.offset))
    case (.value, .failure(let error)):
      Issue.record("expected a value, got \(error)")
    case (.error(let message), .success(let value)):
      Issue.record("expected '\(message)', got \(value)")
    }
  }

  /// Writing and parsing again gives the same tree: strings with quotes, backslashes and
  /// control characters are escaped, keys come out sorted.
  @Test func writingThenParsingIsTheIdentityOnSortedTrees() throws {
    let tree = JSONValue.object([
      ("a", .string("quote \" backslash \\ newline \n tab \t bell \u{7} nul \u{0} é 😀")),
      ("b", .array([.null, .bool(true), Self.number("-1.25e-3"), .object([])])),
    ])
    for pretty in [false, true] {
      let text = tree.rendered(pretty: pretty)
      #expect(try JSONParser.parse(text) == tree)
    }
    #expect(JSONValue.object([("b", .null), ("a", .null)]).rendered() == #"{"a":null,"b":null}"#)
  }

  /// Seconds are written to the millisecond, rounding half away from zero, without
  /// overflowing at the ends of 64 bits.
  @Test(arguments: [
    (Int64(0), "0.0"), (1_499_999, "0.001"), (1_500_000, "0.002"), (-1_500_000, "-0.002"),
    (350_100_000_000, "350.1"), (-400_000, "0.0"), (Int64.max, "9223372036.855"), (Int64.min, "-9223372036.855"),
  ])
  func secondsAreWrittenToTheMillisecond(nanos: Int64, text: String) {
    #expect(JSONWriter.seconds(nanos) == text)
  }
}
