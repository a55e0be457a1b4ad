// The one helper of the runner's SDK that ActionCommand.cs calls, written for this oracle.
namespace GitHub.Runner.Sdk
{
    public static class ArgUtil
    {
        public static void NotNullOrEmpty(string value, string name)
        {
            if (string.IsNullOrEmpty(value)) throw new System.ArgumentException(name);
        }
    }
}
