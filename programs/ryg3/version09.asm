; RYG3 version 09: selects the version-specific code in the common sources
VERSION = 9
