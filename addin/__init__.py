"""bianpai.addin"""
