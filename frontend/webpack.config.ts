import path from 'node:path';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import type { Configuration } from 'webpack';
import type { Configuration as DevServerConfiguration } from 'webpack-dev-server';

/** Backend the dev server proxies `/diyvrbt` to; override with REELFORGE_BACKEND. */
const backend = process.env.REELFORGE_BACKEND ?? 'http://localhost:8080';

const swcOptions = {
  jsc: {
    parser: { syntax: 'typescript', tsx: true },
    target: 'es2020',
    transform: { react: { runtime: 'automatic' } },
  },
};

/** Returns the webpack configuration for `--mode production|development`. */
export default (_env: unknown, argv: { mode?: 'production' | 'development' }): Configuration & {
  devServer?: DevServerConfiguration;
} => {
  const production = argv.mode !== 'development';
  return {
    mode: production ? 'production' : 'development',
    entry: './src/index.tsx',
    output: {
      path: path.resolve(__dirname, 'dist'),
      publicPath: '/',
      filename: production ? 'assets/[name].[contenthash:8].js' : 'assets/[name].js',
      chunkFilename: production ? 'assets/[name].[contenthash:8].chunk.js' : 'assets/[name].chunk.js',
      clean: true,
    },
    // No source maps in the served build: they would publish the sources (the gateway refuses *.map too).
    devtool: production ? false : 'eval-cheap-module-source-map',
    resolve: {
      extensions: ['.tsx', '.ts', '.js', '.json'],
      alias: { '@': path.resolve(__dirname, 'src') },
    },
    module: {
      rules: [
        {
          test: /\.[cm]?tsx?$/,
          exclude: /node_modules/,
          use: { loader: 'swc-loader', options: swcOptions },
        },
      ],
    },
    optimization: {
      splitChunks: {
        chunks: 'all',
        cacheGroups: {
          antd: { test: /[\\/]node_modules[\\/](antd|@ant-design|rc-[^\\/]+|@rc-component)[\\/]/, name: 'antd', priority: 20 },
          // Initial chunks only: libraries only the editor uses (react-moveable, react-selecto) stay in its lazy chunk.
          vendor: { test: /[\\/]node_modules[\\/]/, name: 'vendor', chunks: 'initial', priority: 10 },
        },
      },
    },
    performance: { maxAssetSize: 2_000_000, maxEntrypointSize: 3_000_000 },
    plugins: [
      new HtmlWebpackPlugin({
        template: './src/index.html',
        title: 'Reelforge',
      }),
    ],
    devServer: {
      port: Number(process.env.PORT ?? 3000),
      hot: true,
      proxy: [{ context: ['/diyvrbt'], target: backend, changeOrigin: true }],
    },
  };
};
