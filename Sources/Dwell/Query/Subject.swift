/// What a query is about: the whole app, or one screen (or feature timer).
public enum Subject: Hashable, Sendable {
  /// The whole app.
  case app
  /// One screen or feature, by name.
  case screen(String)

  var name: String? {
    if case .screen(let name) = self { return ScreenName.clean(name) }
    return nil
  }
}
