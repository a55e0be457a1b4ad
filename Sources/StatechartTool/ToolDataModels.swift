import StatechartsSCXML

#if ECMAScript
import StatechartsECMAScript
#endif

/// The data models the tool runs documents with: the null data model, and ECMAScript when the
/// package is built with its trait ECMAScript (the default).
public enum ToolDataModels {
    /// Every data model this build of the tool has.
    public static var all: [any SCXMLDataModel.Type] {
        #if ECMAScript
        return ECMAScriptDataModel.withBuiltIns
        #else
        return SCXMLDocument.builtInDataModels
        #endif
    }
}
