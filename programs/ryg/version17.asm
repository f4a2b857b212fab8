; RYG (first series) version 17: selects the version-specific code in the common sources
VERSION = 17
