import StatechartsSCXML

#if ECMAScript
import StatechartsECMAScript
#endif

/// The data models of this build: the null data model, and ECMAScript when the package is built
/// with its trait ECMAScript (the default). What the tool, the tests and the fuzzers run
/// documents with.
public enum BuiltDataModels {
    /// Every data model this build has.
    public static var all: [any SCXMLDataModel.Type] {
        #if ECMAScript
        return ECMAScriptDataModel.withBuiltIns
        #else
        return SCXMLDocument.builtInDataModels
        #endif
    }
}
