module @m attributes {x} {
  module {
  }
}
